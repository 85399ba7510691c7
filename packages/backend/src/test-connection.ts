/** "Test connection": one tiny streamed chat request to the configured model. */
import type { ModelSettings } from "@bonsai/core";
import { streamTurn } from "@bonsai/llm";

const TIMEOUT_MS = 20_000;

function isLoopback(url: string): boolean {
  try {
    return ["127.0.0.1", "localhost", "[::1]", "::1"].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

export async function testConnection(model: ModelSettings, apiKey: string | null): Promise<{ ok: boolean; model: string; latencyMs: number; message: string }> {
  if (model.baseUrl === "" || model.model === "") {
    return { ok: false, model: model.model, latencyMs: 0, message: "No model configured: set the base URL and the model first" };
  }
  if (apiKey === null && !isLoopback(model.baseUrl)) {
    return { ok: false, model: model.model, latencyMs: 0, message: `No API key: save one here or set ${model.apiKeyEnv}` };
  }
  const started = Date.now();
  const { message: reply } = await streamTurn([{ role: "user", content: "Reply with the single word OK.", timestamp: started }], {
    endpoint: { baseUrl: model.baseUrl, apiKey: apiKey ?? "", timeoutMs: TIMEOUT_MS },
    model: model.model,
    maxTokens: 16,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const latencyMs = Date.now() - started;
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    return { ok: false, model: model.model, latencyMs, message: reply.errorMessage ?? `the request ended with ${reply.stopReason}` };
  }
  return { ok: true, model: model.model, latencyMs, message: `${model.model} answered in ${latencyMs} ms` };
}
