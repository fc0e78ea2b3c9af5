import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

/**
 * The inspector: one HTML page, one script, one stylesheet, into dist/inspector/. `serve` serves it as it is;
 * `view --html` inlines the script and the stylesheet into a static copy, so the bundle must be one chunk.
 */
export default defineConfig({
  root: here,
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/inspector/", import.meta.url)),
    emptyOutDir: true,
    modulePreload: false,
    cssCodeSplit: false,
    sourcemap: false,
    target: "es2022",
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
