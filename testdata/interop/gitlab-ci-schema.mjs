// Prints GitLab's JSON Schema for .gitlab-ci.yml (ci.json, from
// gitlab-org/gitlab's app/assets/javascripts/editor/schema) as the pinned
// gitlab-ci-local bundles it: its dist/index.js holds the schema as one
// object literal, which gitlab-ci-local then loosens in a few places before
// it validates with it. This prints the literal as it was bundled, before
// that loosening, so the tests validate against GitLab's own rules.
//
//   node gitlab-ci-schema.mjs > ci.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = fileURLToPath(new URL("node_modules/gitlab-ci-local/dist/index.js", import.meta.url));
const src = readFileSync(bundle, "utf8");
const head = '{$schema:"http://json-schema.org/draft-07/schema#",$id:"https://gitlab.com/.gitlab-ci.yml"';
const start = src.indexOf(head);
if (start < 0 || src.indexOf(head, start + 1) >= 0) {
  console.error(`${bundle}: want exactly one object literal starting ${head}`);
  process.exit(1);
}

// The literal ends at the brace that closes its first one; braces inside
// string literals do not count.
let depth = 0;
let end = -1;
for (let i = start; i < src.length && end < 0; i++) {
  const c = src[i];
  if (c === '"' || c === "'" || c === "`") {
    for (i++; src[i] !== c; i++) {
      if (src[i] === "\\") i++;
      else if (c === "`" && src[i] === "$" && src[i + 1] === "{") {
        console.error(`${bundle}: a template literal with a substitution in the schema at ${i}`);
        process.exit(1);
      }
    }
  } else if (c === "{" || c === "[") {
    depth++;
  } else if (c === "}" || c === "]") {
    if (--depth === 0) end = i + 1;
  }
}
if (end < 0) {
  console.error(`${bundle}: the schema's object literal does not end`);
  process.exit(1);
}
// A literal of data (strings, numbers, !0 and !1 for the booleans), so
// evaluating it runs nothing else.
const schema = new Function(`return (${src.slice(start, end)});`)();
process.stdout.write(JSON.stringify(schema, null, 2) + "\n");
