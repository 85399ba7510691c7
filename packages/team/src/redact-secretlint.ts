/**
 * secretlint's recommended preset (a maintained rule set for secrets in text) as a source of
 * ranges. Its findings are named after the message it gives (`AWSSecretAccessKey` →
 * `aws-secret-access-key`), and each range is carried on to the end of the token it ends in: a rule
 * that reports only part of a secret must not leave the rest behind.
 */
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretRange } from "./redact-text";

const CONFIG = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] };

/**
 * Session text is not the user's source code: a `secretlint-disable` comment in a tool's output must
 * not switch the rules off for what follows, so directives are broken (same length) before linting.
 */
function withoutDirectives(view: string): string {
  return view.replace(/secretlint-(?=disable|enable)/gi, "secretlint_");
}

/** `AWSSecretAccessKey` → `aws-secret-access-key`, `GITHUB_TOKEN` → `github-token` */
export function kindName(messageId: string): string {
  return messageId
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
}

const TOKEN_CHAR = /[^\s"'`,;<>()[\]{}]/;

function toTokenEnd(view: string, end: number): number {
  let at = end;
  while (at < view.length && at > 0 && TOKEN_CHAR.test(view[at - 1] as string) && TOKEN_CHAR.test(view[at] as string)) at += 1;
  return at;
}

/** The ranges secretlint's recommended rules report in `view` (a scan view). */
export async function secretlintRanges(view: string): Promise<SecretRange[]> {
  if (view.length === 0) return [];
  const result = await lintSource({
    source: { content: withoutDirectives(view), filePath: "session.txt", ext: ".txt", contentType: "text" },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  return result.messages
    .filter((message) => message.range[1] > message.range[0])
    .map((message) => ({ start: message.range[0], end: toTokenEnd(view, message.range[1]), kind: kindName(message.messageId) }));
}
