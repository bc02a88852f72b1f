// User profiles (the directory's user records as the profile service shows them): setting a
// property, and a new photo (stored and pointed at from every site's User Information List).
// Who may do it is the front's check (one's own profile, or a site's ManageWeb).

import type { DirectoryUser, Photo } from '../store/directory.ts';
import { setUserPhoto } from '../identity/profiles.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

export class ProfileService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async setProperty(user: DirectoryUser, name: string, value: string | string[]): Promise<void> {
    await this.store.directory.setProfileProperty(user.upn, name, value);
  }

  /** `picture` already made storable (identity/profiles.ts `storablePicture`). */
  setPhoto(user: DirectoryUser, picture: { contentType: string; bytes: Buffer }): Promise<Photo> {
    return setUserPhoto(this.store, user, picture, this.actor.now());
  }
}
