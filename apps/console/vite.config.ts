import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` sends console API calls: the control plane started by `npm start`. */
const API_TARGET = 'http://127.0.0.1:8080';

/**
 * Vendor code of the first load is grouped into a few long-lived chunks, so that a release that
 * changes only the console's own code keeps the browser's cached React and antd. The groups take
 * only `$initial` modules (those the entry imports statically): antd components and libraries that
 * only lazily loaded pages use (tables, forms, ECharts) stay in those pages' chunks, so the first
 * load carries just what the shell renders. Page code is split per route by the router's `lazy`.
 */
const VENDOR_GROUPS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
  { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@babel[\\/]runtime|dayjs)[\\/]/ },
  { name: 'vendor', test: /node_modules[\\/]/ },
];

export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS.map((group, index) => ({
            ...group,
            tags: ['$initial' as const],
            priority: VENDOR_GROUPS.length - index,
          })),
        },
      },
    },
  },
});
