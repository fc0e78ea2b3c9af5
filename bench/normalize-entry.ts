// The CLI as bin/provider-runtime.js runs it, but from the current sources (bin/ runs the last build in dist/).
import { runAsProcess } from "../src/cli/main.js";

runAsProcess();
