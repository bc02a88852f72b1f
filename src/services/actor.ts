// Who performs a service operation and when: the user id recorded as Author/Editor and the
// clock writes are stamped with (injectable, so tests and imports can fix it).

export interface Actor {
  /** The acting user's id in the site's User Information List. */
  userId: number;
  /** The current time as `YYYY-MM-DDTHH:MM:SSZ`. */
  now(): string;
}
