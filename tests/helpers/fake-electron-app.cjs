// A stand-in for `electron` as electron-store uses it in the main process: app.getPath and
// app.getVersion, and ipcMain.on for its renderer handshake. The Electron binary is never
// downloaded on this machine, so the real module cannot load. CommonJS, unlike
// fake-electron.ts, because electron-store does `import electron from 'electron'`: a default
// import of a CommonJS module, which only a CommonJS fake provides the same way.
'use strict';

/** Channels electron-store registered with ipcMain.on, in order. */
const ipcListeners = [];
/** Channels our code removed again with ipcMain.removeAllListeners. */
const removedListeners = [];

const fake = {
  app: {
    // Only consulted for a relative `cwd`; ours is always absolute, so this path is never used.
    getPath: () => '/nonexistent/fake-electron-userData',
    getVersion: () => '0.1.0',
  },
  ipcMain: {
    on: (channel) => {
      ipcListeners.push(channel);
    },
    removeAllListeners: (channel) => {
      for (let i = ipcListeners.length - 1; i >= 0; i--)
        if (ipcListeners[i] === channel) ipcListeners.splice(i, 1);
      removedListeners.push(channel);
    },
  },
  ipcListeners,
  removedListeners,
};
// Assigned one by one so Node's CommonJS export detection offers named imports too
// (electron/main code does `import { ipcMain } from 'electron'`).
exports.app = fake.app;
exports.ipcMain = fake.ipcMain;
exports.ipcListeners = fake.ipcListeners;
exports.removedListeners = fake.removedListeners;
