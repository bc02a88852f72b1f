// The floor under spemu's file transfers on PostgreSQL (bench/files.ts, `--db postgres`): the
// same 100 MiB file written into the same database by node-postgres alone, as spemu stores
// bytes there — 1 MiB `bytea` rows, one INSERT each (its own commit), the bytes passed as a
// Buffer (sent binary) — then read back a row at a time (bytea arrives as hex text). No HTTP,
// no hashing, no overlap: what the database and the driver take for the bytes on this machine.

import { createReadStream } from 'node:fs';
import pg from 'pg';
import { MiB } from './file-transfer.ts';

export interface PgFloor {
  /** Writes `file` (its `size` bytes) into the floor's table under a new key. */
  write(file: string, size: number): Promise<void>;
  /** Reads back what the last write stored. */
  read(): Promise<void>;
  close(): Promise<void>;
}

export async function openPgFloor(url: string): Promise<PgFloor> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('create table floor_chunks (storage_key text not null, seq integer not null, data bytea not null, primary key (storage_key, seq))');
  let key = 0;
  let rows = 0;
  return {
    async write(file, size) {
      key++;
      rows = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const insert = async (data: Buffer) => { await client.query('insert into floor_chunks values ($1, $2, $3)', [String(key), rows++, data]); };
      for await (const piece of createReadStream(file, { highWaterMark: 256 * 1024 })) {
        pending.push(piece as Buffer);
        pendingBytes += (piece as Buffer).length;
        if (pendingBytes >= MiB) {
          const joined = Buffer.concat(pending, pendingBytes);
          await insert(joined.subarray(0, MiB));
          pending = joined.length > MiB ? [joined.subarray(MiB)] : [];
          pendingBytes = joined.length - MiB;
        }
      }
      if (pendingBytes > 0) await insert(Buffer.concat(pending, pendingBytes));
      if (rows !== Math.ceil(size / MiB)) throw new Error(`the floor wrote ${rows} rows for ${size} bytes`);
    },
    async read() {
      for (let seq = 0; seq < rows; seq++) {
        const { rows: got } = await client.query('select data from floor_chunks where storage_key = $1 and seq = $2', [String(key), seq]);
        if (!Buffer.isBuffer(got[0]?.data)) throw new Error(`the floor's row ${seq} is missing`);
      }
      await client.query('delete from floor_chunks where storage_key = $1', [String(key)]);
    },
    close: () => client.end(),
  };
}
