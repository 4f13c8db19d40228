// Preloaded into a Node server by the tests (node --import): every server
// it starts listens on 127.0.0.1 only, and once listening prints
// "listening on http://127.0.0.1:<port>" to stderr, so a test can start it
// with PORT=0 and read the port the system chose (server-everything
// listens on all interfaces and prints the port it was given).
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if ((typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) && typeof args[1] !== "string") {
    args.splice(1, 0, "127.0.0.1");
  }
  this.once("listening", () => {
    const a = this.address();
    if (a && typeof a === "object") {
      process.stderr.write(`listening on http://127.0.0.1:${a.port}\n`);
    }
  });
  return listen.apply(this, args);
};
