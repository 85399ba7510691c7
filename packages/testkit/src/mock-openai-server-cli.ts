/**
 * Serves the loopback OpenAI-compatible mock on a fixed port for manual runs and Playwright:
 *   node --import tsx packages/testkit/src/mock-openai-server-cli.ts --port 18080
 * Answers are deterministic (summaries numbered by request); script others with POST /__mock/enqueue.
 */
import { startMockOpenAiServer } from "./mock-openai-server";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const portArg = argValue("--port") ?? "0";
const port = Number(portArg);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`mock-openai-server: --port must be an integer between 0 and 65535, got "${portArg}"\n`);
  process.exit(2);
}
const models = (argValue("--models") ?? "mock-model").split(",").filter(Boolean);
const server = await startMockOpenAiServer({ port, models });
process.stdout.write(`mock OpenAI server listening on ${server.baseUrl} (remote summarize: ${server.remoteUrl})\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
