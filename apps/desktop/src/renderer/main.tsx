import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "./styles.css";
import { App } from "./shell/App";
import { ConnectArchive, CONNECT_ARCHIVE_HASH } from "./shell/ConnectArchive";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    {window.location.hash === CONNECT_ARCHIVE_HASH ? <ConnectArchive /> : <App />}
  </StrictMode>,
);
