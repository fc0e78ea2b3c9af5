import { codexAcpShell } from "../../src/providers/acp/scenario-run.js";
import { acpTarget } from "./acp-target.js";
import { describeFaults } from "./harness.js";

// codex-acp runs a bare `echo` without asking; the mock's piped command makes it ask.
describeFaults(acpTarget("codex-acp", codexAcpShell));
