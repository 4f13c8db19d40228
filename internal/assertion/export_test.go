package assertion

// ListToolsCall exposes listToolsCall to the external tests.
const ListToolsCall = listToolsCall
