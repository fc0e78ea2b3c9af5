// The CLI as bin/provider-runtime.js runs it, but from the current sources (bin/ runs the last build in dist/).
import { main } from "../src/cli/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`provider-runtime: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
