#!/usr/bin/env node
import { runAsProcess } from "../dist/cli/main.js";

runAsProcess();
