export { type FileResult, type FileStatus, importedSessionId, importFile } from "./import-file.js";
export { type ImportHooks, type ImportOptions, type ImportSummary, runImport } from "./importer.js";
export { defaultRoots, HISTORY_SOURCES, type HistorySource, isHistorySource } from "./sources.js";
