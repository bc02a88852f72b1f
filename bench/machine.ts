// What the figures were measured on: they mean little without it.

import { readFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
}

export function describeMachine(): Machine {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch { /* not Linux: keep os.cpus()'s model */ }
  return { cpu, cores: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, os: `${process.platform} ${release()}` };
}

export const machineLine = (m: Machine) => `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}`;
