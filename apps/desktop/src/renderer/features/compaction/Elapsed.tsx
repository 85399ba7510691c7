import { useEffect, useState } from "react";

/** Seconds since `since`, ticking while shown. */
export function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, []);
  return <span className="bz-muted">{Math.max(0, Math.floor((now - since) / 1000))} s</span>;
}
