/**
 * "Connect to team archive…": the address a window opens for a team archive's URL and a person's
 * token (the page takes the token from it once and keeps it for the window, as browser mode does).
 * Pure; tested.
 */

/** The archive page's address with the token, or the reason these cannot be used, in one sentence. */
export function archiveAddress(url: string, token: string): { address: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { error: "the archive's address is not a URL (for example https://bonsai.example.com)" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { error: "the archive's address starts with https:// (or http:// on a private network)" };
  if (parsed.username !== "" || parsed.password !== "") return { error: "the archive's address carries no user name or password: sign in with your token" };
  const secret = token.trim();
  if (secret === "") return { error: "the token is empty: ask your archive's admin for one" };
  if (/\s/u.test(secret)) return { error: "a token has no spaces in it" };
  const page = new URL("/", parsed.origin);
  page.searchParams.set("token", secret);
  return { address: page.href };
}
