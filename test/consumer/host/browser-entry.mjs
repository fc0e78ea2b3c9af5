// What a web page imports: the pure parts and the remote client, no Node built-in allowed (esbuild, platform browser).

export * from "provider-runtime/client";
export * from "provider-runtime/contracts";
export * from "provider-runtime/projection";
export * from "provider-runtime/verify";
