import { acpTarget } from "./acp-target.js";
import { describeFaults } from "./harness.js";

describeFaults(acpTarget("codex-acp"));
