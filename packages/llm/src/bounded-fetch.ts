/**
 * Reading a model server's answer with limits: a server that sends far more than a reply can be
 * (a 20 MB body, a stream without line ends, an HTML page instead of a stream) ends the request
 * with a clear error as soon as it is noticed, and the connection is closed, instead of being read
 * whole. Used as the `fetch` of the OpenAI client and for the remote summarizer's answer.
 */

export interface ResponseLimits {
  /** the most bytes read from one response body */
  maxBytes: number;
  /** a streamed answer: the most bytes between two line ends (one server-sent event line) */
  maxLineBytes?: number;
  /** a successful answer must be a stream of server-sent events (text/event-stream) */
  eventStream?: boolean;
}

/** A streamed turn: 64 MiB in all, 4 MiB per event line. */
export const STREAM_LIMITS: ResponseLimits = { maxBytes: 64 * 1024 * 1024, maxLineBytes: 4 * 1024 * 1024, eventStream: true };
/** A summary answered as one JSON body. */
export const SUMMARY_RESPONSE_LIMITS: ResponseLimits = { maxBytes: 8 * 1024 * 1024 };

const MiB = 1024 * 1024;
const size = (bytes: number) => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes} bytes`);

/** The answer broke a limit; its message is the one the user sees. */
export class ResponseLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResponseLimitError";
  }
}

function limitedBody(body: ReadableStream<Uint8Array>, limits: ResponseLimits): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  let sinceNewline = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        controller.error(err);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      const bytes = chunk.value;
      total += bytes.length;
      let problem: string | undefined;
      if (total > limits.maxBytes) problem = `the model server sent more than ${size(limits.maxBytes)}; Bonsai stopped reading (a reply is never that long)`;
      if (limits.maxLineBytes !== undefined) {
        const last = bytes.lastIndexOf(10);
        sinceNewline = last < 0 ? sinceNewline + bytes.length : bytes.length - last - 1;
        if (sinceNewline > limits.maxLineBytes) problem ??= `the model server's answer is not a stream of server-sent events (a line longer than ${size(limits.maxLineBytes)}); Bonsai stopped reading`;
      }
      if (problem !== undefined) {
        controller.error(new ResponseLimitError(problem));
        void reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(bytes);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function failingBody(error: Error): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(error);
    },
  });
}

/** The response with its body limited (and refused at once when it should be a stream and is not). */
export function limitResponse(response: Response, limits: ResponseLimits): Response {
  if (!response.body) return response;
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  const type = response.headers.get("content-type");
  if (limits.eventStream && response.ok && type !== null && !/event-stream/iu.test(type)) {
    void response.body.cancel().catch(() => undefined);
    return new Response(failingBody(new ResponseLimitError(`the model server answered with ${type.split(";")[0]}, not a stream of server-sent events`)), init);
  }
  return new Response(limitedBody(response.body, limits), init);
}

/** A fetch whose responses are limited (the OpenAI client's `fetch` option). */
export function boundedFetch(limits: ResponseLimits, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => limitResponse(await base(input, init), limits);
}

/** The body as text, at most `maxBytes` (else a ResponseLimitError). */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  return new Response(limitResponse(response, { maxBytes }).body).text();
}
