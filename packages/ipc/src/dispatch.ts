/**
 * The backend side of the contract, transport-neutral: validate the method name and the payload,
 * run the handler, and turn every outcome into a CallResult. Nothing a client sends can throw out
 * of `dispatch`.
 */
import type { z } from "zod";
import { contract, type Contract, type HandlerInput, type MethodName } from "./contract";
import { IpcError, type CallResult, type IpcIssue } from "./errors";

/** The shape every contract has: method name -> input and output schemas. */
export type ContractShape = Record<string, { input: z.ZodType; output: z.ZodType }>;

/**
 * One handler per method of a contract, checked at compile time: a missing, extra-typed or
 * mistyped handler is an error. Each receives the validated input and returns the output.
 */
export type Handlers<C extends ContractShape = Contract> = {
  -readonly [M in keyof C]: (input: z.output<C[M]["input"]>) => Promise<z.output<C[M]["output"]>> | z.output<C[M]["output"]>;
};

export type Dispatch = (method: unknown, params: unknown) => Promise<CallResult>;

export interface DispatcherOptions {
  /** turn a handler's own errors (store/engine errors) into typed ones; return undefined to keep "internal" */
  mapError?: (err: unknown, method: MethodName) => IpcError | undefined;
  /** called for errors that end up as "internal" (log them) */
  onInternalError?: (err: unknown, method: MethodName) => void;
}

export function isMethodName(v: unknown): v is MethodName {
  return typeof v === "string" && Object.prototype.hasOwnProperty.call(contract, v);
}

export function zodIssues(error: z.ZodError): IpcIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

function describeIssues(issues: IpcIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}

/** Validate `params` against the method's input schema; throws an invalid_payload IpcError. */
export function parseInput<M extends MethodName>(method: M, params: unknown): HandlerInput<M> {
  const parsed = contract[method].input.safeParse(params ?? {});
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw new IpcError("invalid_payload", `${method}: ${describeIssues(issues)}`, issues);
  }
  return parsed.data as HandlerInput<M>;
}

export function createDispatcher(handlers: Handlers, options: DispatcherOptions = {}): Dispatch {
  return async (method, params) => {
    // a contract method without a handler here is as unknown as a name outside the contract
    const handler = isMethodName(method) ? (handlers[method] as ((input: unknown) => unknown) | undefined) : undefined;
    if (!isMethodName(method) || typeof handler !== "function") {
      return { ok: false, error: { code: "unknown_method", message: `unknown method ${JSON.stringify(String(method)).slice(0, 120)}` } };
    }
    try {
      const input = parseInput(method, params);
      const value = await handler(input);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof IpcError) return { ok: false, error: err.toData() };
      const mapped = options.mapError?.(err, method);
      if (mapped) return { ok: false, error: mapped.toData() };
      options.onInternalError?.(err, method);
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: { code: "internal", message: `${method} failed: ${message}` } };
    }
  };
}
