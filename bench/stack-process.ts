import { spawn, type ChildProcess } from 'node:child_process';

/** `npm start`'s local stack in a child process, so what drives it does not share its CPU time. */
export interface StackProcess {
  url: string;
  sandboxes: Record<string, string>;
  /** the process's id (its /proc/<pid>/status holds its memory) */
  pid: number;
  stop(): Promise<void>;
}

export async function startStackProcess(env: NodeJS.ProcessEnv): Promise<StackProcess> {
  const child: ChildProcess = spawn(process.execPath, ['local/main.ts'], {
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the local stack did not start')), 30_000);
    child.stdout?.on('data', () => {
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const sandboxes = Object.fromEntries(
    [...output.matchAll(/^\s+(social|searchads|professional)\s+(http:\/\/\S+)/gm)].map((match) => [match[1] as string, match[2] as string]),
  );
  return {
    url,
    sandboxes,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
