// Lighthouse's command line (its cli/bin.js: the flags parsed by its own parser, then its
// runLighthouse), run once for each line read from stdin, one run after the other, in one
// Node.js process and one Chromium: tests/browser/_lighthouse.py drives it, so that a module's
// runs do not each start Node.js, load Lighthouse and launch Chromium again.
//
// Arguments: Lighthouse's package folder, then the flags Chromium is launched with (as the
// command line's --chrome-flags). Each line read is a run's arguments as a JSON array (as the
// command line takes them, with --port naming this Chromium, which the run then uses rather
// than launch its own); each run answers with a line "lighthouse-run: done". A run that fails
// ends the process with Lighthouse's own message and exit status, as its command line does.
// The first line written names Chromium's port and process. The end of stdin ends the process;
// Chromium is closed whenever it ends.
import {createInterface} from "node:readline";
import {join} from "node:path";
import {pathToFileURL} from "node:url";

const [root, chromeFlags] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(root, path)).href);
const {getFlags} = await load("cli/cli-flags.js");
const {parseChromeFlags, runLighthouse} = await load("cli/run.js");
const {default: log} = await load("../lighthouse-logger/index.js");
const ChromeLauncher = await load("../chrome-launcher/dist/index.js");

const chrome = await ChromeLauncher.launch({chromeFlags: parseChromeFlags(chromeFlags)});
// however the process ends (a failed run ends it with process.exit), Chromium goes with it
process.on("exit", () => chrome.kill());
process.stdout.write(`lighthouse-run: chromium ${chrome.port} ${chrome.pid}\n`);
for await (const line of createInterface({input: process.stdin})) {
  const flags = getFlags(JSON.parse(line));
  // as cli/bin.js sets them: --quiet is the silent log level; no error reports are sent
  flags.logLevel = flags.quiet ? "silent" : "info";
  log.setLevel(flags.logLevel);
  flags.enableErrorReporting = false;
  await runLighthouse(flags._[0], flags, undefined);
  process.stdout.write("lighthouse-run: done\n");
}
chrome.kill(); // Node.js ends once Chromium has
