// Placeholder entry so the build works before the real UI lands; the UI replaces this file.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <h1>MCP Desk</h1>
  </StrictMode>,
);
