// Reading a V8 CPU profile (`node --cpu-prof`): self time per function and per source file, for
// bench/profile.ts and bench/realtime.ts --cpu-prof.
import { REPO_ROOT } from './processes.js';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A readable place: the file under dist/, or the package under node_modules, or Node's own. */
function place(url: string): string {
  if (url === '') return '(native/VM)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return `pkg:${modules[1]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(REPO_ROOT, '');
}

export function summarise(profile: CpuProfile, top: number): void {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    const where = place(node.callFrame.url);
    const name = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPlace.set(where, (byPlace.get(where) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
  };
  print('Self time by function:', byFunction);
  print('Self time by file or package:', byPlace);
}

