// Native add-ons: loads the shared object shipped beside it (addon.node, built from
// addon.cpp), whose constructor runs native code at load time before Node asks it to
// register; then process.dlopen on a host path. The native code meets the sandbox's
// walls like any C++ bot; then it exits 3.
const path = require("path");
const readline = require("readline");

function attack() {
  try {
    require(path.join(__dirname, "addon.node"));
    console.error("addon loaded and registered");
  } catch (error) {
    console.error(`addon loaded, then refused by Node: ${error.message}`);
  }
  for (const host of ["__SETTINGS__", "/usr/lib/node_modules/npm/node_modules/host.node"]) {
    try {
      process.dlopen({ exports: {} }, host);
      console.error(`LEAK dlopen ${host}`);
    } catch (error) {
      console.error(`BLOCKED dlopen ${host}: ${error.message.split("\n")[0]}`);
    }
  }
  process.exit(3);
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (JSON.parse(line).type === "act") attack();
});
