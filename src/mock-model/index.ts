export {
  type ClaudeEnvOptions,
  type CodexHomeEnv,
  type CodexHomeExtra,
  claudeEnv,
  codexBinaryPath,
  codexConfigToml,
  MOCK_API_KEY,
  writeCodexHome,
} from "./agent-env.js";
export { mockOptionsForAgent } from "./agent-scripts.js";
export {
  MOCK_MODEL_HELP,
  type MockModelCommandControl,
  type MockModelCommandIo,
  runMockModelCommand,
} from "./cli.js";
export { type ImagePart, imagePartData, requestImageParts } from "./request-images.js";
export { MULTI_TURN_PROMPTS, SCENARIO_PROMPTS, scenarioRecordings } from "./scenario-prompts.js";
export {
  EDIT_FILE_CONTENT,
  EDIT_FILE_NAME,
  ESCALATED_SHELL,
  finalAnswer,
  HOLD_COMMAND,
  HOLD_OUTPUT,
  HOLD_RELEASE_FILE,
  isScenarioName,
  LONG_DELTA_COUNT,
  MCP_ECHO_TEXT,
  MCP_ECHO_TOOL,
  type ModelApi,
  type OfferedTool,
  type ReplyBlock,
  type ReplyLabel,
  type RequestFacts,
  SCENARIO_NAMES,
  type ScenarioName,
  type ScriptedReply,
  type ScriptOverride,
  SHELL_COMMAND,
  SHELL_MARKER_OUTPUT,
  SIDE_REQUEST_ANSWER,
  SUBAGENT_ANSWER,
  scriptReply,
  type ToolKind,
  type ToolResultFact,
} from "./scenarios.js";
export {
  type MockModelOptions,
  type MockModelServer,
  type MockRequestRecord,
  startMockModel,
} from "./server.js";
