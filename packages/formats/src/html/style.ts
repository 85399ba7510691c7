/** The page's stylesheet and script, inlined into every export (light and dark, no web fonts). */

export const STYLE = `
:root{--bg:#fbfaf7;--panel:#f1efe8;--text:#1e2126;--muted:#6b6f76;--line:#d9d5ca;--accent:#2f6f4f;--user:#e7f0ea;--assistant:#ffffff;--tool:#f4f2ec;--compaction:#fff3d6;--compaction-line:#c98a12;--branch:#ece6f7;--error:#b3261e;--code:#eeebe3;color-scheme:light}
:root[data-theme=dark]{--bg:#16181c;--panel:#1e2126;--text:#e6e6e3;--muted:#9aa0a8;--line:#333840;--accent:#7fc79f;--user:#1f2a24;--assistant:#1b1e23;--tool:#22262c;--compaction:#3a3016;--compaction-line:#e0a93a;--branch:#2a2438;--error:#f28b82;--code:#262a31;color-scheme:dark}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#16181c;--panel:#1e2126;--text:#e6e6e3;--muted:#9aa0a8;--line:#333840;--accent:#7fc79f;--user:#1f2a24;--assistant:#1b1e23;--tool:#22262c;--compaction:#3a3016;--compaction-line:#e0a93a;--branch:#2a2438;--error:#f28b82;--code:#262a31;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header.top{display:flex;align-items:flex-start;gap:16px;padding:14px 20px;border-bottom:1px solid var(--line);background:var(--panel)}
header.top h1{font-size:18px;margin:0 0 4px}
header.top .facts{color:var(--muted);font-size:12px}
header.top .facts span{margin-right:14px}
header.top button{margin-left:auto;background:transparent;color:var(--text);border:1px solid var(--line);border-radius:6px;padding:4px 10px;cursor:pointer;font:inherit}
main{display:grid;grid-template-columns:minmax(240px,340px) 1fr;min-height:calc(100vh - 70px)}
nav.tree-panel{border-right:1px solid var(--line);padding:12px;overflow:auto;max-height:calc(100vh - 70px);position:sticky;top:0;background:var(--panel)}
h2.section{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:4px 0 8px}
ul.tree,ul.branches{list-style:none;margin:0;padding:0}
ul.branches{margin-left:10px;padding-left:8px;border-left:2px solid var(--line)}
li.segment{margin:4px 0}
li.segment>.rows{border-left:3px solid var(--line);padding-left:6px}
li.segment.active>.rows{border-left-color:var(--accent)}
.row{display:block;font-size:12px;color:var(--text);text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding:1px 0}
a.row:hover{text-decoration:underline}
.row.more{color:var(--muted)}
.row.compaction{color:var(--compaction-line)}
.row.branchSummary{color:#7a5cc2}
.badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:9px;background:var(--code);color:var(--muted);margin-left:4px}
.badge.leaf{background:var(--accent);color:var(--bg)}
.badge.error{color:var(--error)}
.label{font-size:11px;color:var(--accent);margin-left:4px}
.content{padding:16px 24px;min-width:0}
figure.chart{margin:0 0 16px}
figure.chart svg{width:100%;height:auto;display:block;background:var(--panel);border:1px solid var(--line);border-radius:8px}
figure.chart .line{fill:none;stroke:var(--accent);stroke-width:2}
figure.chart .area{fill:var(--accent);opacity:.15}
figure.chart circle{fill:var(--accent)}
figure.chart .axis{stroke:var(--line)}
figure.chart .tick{fill:var(--muted);font-size:12px}
figure.chart .compaction-mark{stroke:var(--compaction-line);stroke-width:2;stroke-dasharray:4 3}
figcaption{color:var(--muted);font-size:12px;margin-top:4px}
section.entry{border:1px solid var(--line);border-radius:8px;margin:10px 0;padding:8px 12px;background:var(--assistant)}
section.entry>header{display:flex;gap:8px;align-items:baseline;font-size:12px;color:var(--muted);margin-bottom:4px;flex-wrap:wrap}
section.entry>header .who{font-weight:600;color:var(--text)}
section.entry>header time{margin-left:auto}
section.user{background:var(--user)}
section.toolResult{background:var(--tool)}
section.compaction{background:var(--compaction);border:2px solid var(--compaction-line)}
section.branchSummary{background:var(--branch)}
section.summarized{opacity:.55}
p.boundary{border-top:2px dashed var(--compaction-line);color:var(--compaction-line);font-size:12px;padding-top:4px;margin:4px 0 14px}
.usage{font-size:11px}
.muted{color:var(--muted)}
.error{color:var(--error)}
details{margin:4px 0}
details>summary{cursor:pointer;font-size:12px;color:var(--muted)}
details.tool>summary code{color:var(--text)}
details.meta ul{margin:4px 0;padding-left:18px;font-size:12px;color:var(--muted)}
details.meta{font-size:12px}
pre{background:var(--code);padding:8px;border-radius:6px;overflow:auto;max-height:480px;white-space:pre-wrap;word-break:break-word;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:0 3px;border-radius:3px}
pre code{background:none;padding:0}
.md{overflow-wrap:anywhere}
.md p{margin:6px 0}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{margin:10px 0 4px;line-height:1.25}
.md h1{font-size:18px}.md h2{font-size:16px}.md h3{font-size:15px}.md h4,.md h5,.md h6{font-size:14px}
.md table{border-collapse:collapse;margin:6px 0;display:block;overflow:auto}
.md th,.md td{border:1px solid var(--line);padding:3px 8px}
.md blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--line);color:var(--muted)}
.md a{color:var(--accent)}
img{max-width:100%;border-radius:6px}
@media (max-width:800px){main{grid-template-columns:1fr}nav.tree-panel{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}}
`;

/** Theme toggle (remembered in localStorage when the browser allows it). */
export const SCRIPT = `
(function(){var r=document.documentElement,k="bonsai-export-theme";try{var s=localStorage.getItem(k);if(s)r.setAttribute("data-theme",s)}catch(e){}
var b=document.getElementById("theme");if(!b)return;b.addEventListener("click",function(){var dark=r.getAttribute("data-theme")?r.getAttribute("data-theme")==="dark":matchMedia("(prefers-color-scheme: dark)").matches;var t=dark?"light":"dark";r.setAttribute("data-theme",t);try{localStorage.setItem(k,t)}catch(e){}})})();
`;
