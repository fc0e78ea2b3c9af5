export * from "./reducer.js";
export * from "./thread-view.js";
