export * from "./enums.js";
export * from "./envelope.js";
export * from "./event-types.js";
export * from "./events.js";
export * from "./ids.js";
export * from "./item-details.js";
export * from "./json-schema.js";
export * from "./payloads.js";
