// `npm run build -w portal`: `react-router build` with its arguments (start-all.ts adds
// `--logLevel warn`), run in this process after the one known third-party deprecation notice is
// taken out of its console (build-notices.ts says which and why).
//
//   node ../scripts/build-portal.ts [react-router build options]   (from portal/)
import { createRequire } from "node:module";
import path from "node:path";
import { dropKnownNotices } from "./build-notices.ts";

dropKnownNotices();
const require = createRequire(new URL("../portal/package.json", import.meta.url));
const bin = path.join(path.dirname(require.resolve("@react-router/dev/package.json")), "bin.js");
// The CLI reads its command from process.argv, as when run as `react-router build …`.
process.argv = [process.argv[0] ?? process.execPath, bin, "build", ...process.argv.slice(2)];
require(bin);
