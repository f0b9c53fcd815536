// A separate process that appends `delivered`-style records with Journal.appendWritten and kills
// itself with SIGKILL the moment the last one is answered, before its fdatasync could be waited
// for: what a crash of the engine right after answering `accepted` leaves on disk.
// Usage: journal-writer.ts <journal dir> <count>
import { Journal } from '../../src/engine/journal/journal.js';

const [dir, count] = process.argv.slice(2);
const { journal } = await Journal.open(dir!);
const n = Number(count);
for (let i = 0; i < n; i++) await journal.append({ t: 'queued', id: `q-${i}`, to: 'ann', from: 'user', text: `durable first ${i}`, timestamp: new Date(0).toISOString(), at: 0 });
const answers: Promise<void>[] = [];
for (let i = 0; i < n; i++) answers.push(journal.appendWritten({ t: 'delivered', id: `q-${i}`, to: 'ann', at: i + 1 }));
await answers.at(-1);
process.kill(process.pid, 'SIGKILL');
