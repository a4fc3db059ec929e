/**
 * The browser the browser tests drive: Debian's headless shell of Chromium (the build Playwright itself
 * runs headless), not the full browser, which took more than twice its CPU for the same tests (69 against
 * 29 CPU-s for both files). `CHROMIUM_PATH` names another binary.
 */
export const CHROMIUM_PACKAGE = 'chromium-headless-shell';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
