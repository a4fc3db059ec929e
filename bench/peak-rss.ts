/**
 * A measured process's own peak RSS. Not `process.resourceUsage().maxRSS`: Linux keeps, across exec,
 * the high-water mark of the process that forked (the bench itself, which may hold gigabytes), so a
 * child would report its parent's peak. VmHWM in /proc/self/status is the peak of this process image.
 */
export function peakRssMb(): number {
  if (process.platform !== 'linux') return Math.round(process.resourceUsage().maxRSS / 1024);
  const status = process.getBuiltinModule('node:fs').readFileSync('/proc/self/status', 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024);
}

/** The same function as source, for the driver scripts the bench writes. */
export const peakRssSource = `(${peakRssMb.toString()})()`;
