import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

// The sidebar and options pages. Relative asset paths, because extension pages live at
// moz-extension://<uuid>/ and are never served from a web origin.
export default defineConfig({
  root: path.join(root, 'src'),
  base: './',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: path.resolve(root, process.env.FOXAGENT_DIST || 'dist'),
    emptyOutDir: false,
    target: 'firefox140',
    modulePreload: false,
    sourcemap: false,
    rollupOptions: {
      input: {
        sidebar: path.join(root, 'src/sidebar.html'),
        options: path.join(root, 'src/options.html'),
        'voice-permission': path.join(root, 'src/voice-permission.html'),
      },
    },
  },
});
