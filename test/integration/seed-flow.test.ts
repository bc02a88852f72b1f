// The original spec's reads, end to end, as a client chains them
// (/work/shared/seeds/000_9db27885c52e749b.txt, endpoints 1–3): an item with its Author and
// Editor expanded → the author's Picture from the User Information List → PictureUrl from
// the profile manager → the image bytes at that URL. (Endpoint 4, EnsureUser, is covered
// with the site users.)

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { call, describeImage, PNG_SIGNATURE } from '../helpers/profiles.ts';

const DIALECTS = [
  { name: 'application/json (minimal)', accept: 'application/json', verbose: false },
  { name: 'nometadata', accept: 'application/json;odata=nometadata', verbose: false },
  { name: 'verbose', accept: 'application/json;odata=verbose', verbose: true },
] as const;

const enc = encodeURIComponent;

describe('the seed spec\'s flow: item → User Information List Picture → PictureUrl → image', () => {
  const spemu = useTestServer();
  let api: string;
  before(async () => {
    api = `${spemu.server.site('/sites/dev')}/_api`;
  });

  for (const dialect of DIALECTS) {
    it(`works in ${dialect.name}`, async () => {
      const body = (json: any) => (dialect.verbose ? json.d : json);
      const rows = (json: any) => (dialect.verbose ? json.d.results : json.value);

      // 1. The item with the user who created it and the one who last changed it.
      const item = await call(`${api}/web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor`, { accept: dialect.accept });
      assert.equal(item.status, 200, item.text);
      const it1 = body(item.json);
      assert.equal(it1.Title, 'Write spec');
      assert.equal(it1.Author.Title, 'Alice Adams');
      assert.equal(it1.Author.LastName, 'Adams');
      assert.equal(it1.Editor.Title, 'Bob Baker');
      assert.equal(it1.Editor.LastName, 'Baker');
      const authorId = it1.Author.ID as number;
      assert.equal(typeof authorId, 'number');

      for (const [userId, email] of [[authorId, 'alice@contoso.com'], [it1.Editor.ID as number, 'bob@contoso.com']] as const) {
        // 2. Picture from the User Information List, exactly as the spec asks for it.
        const uil = await call(`${api}/Web/Lists/getByTitle('User Information List')/items?$filter=${enc(`Id eq ${userId}`)}&$select=Picture`, { accept: dialect.accept });
        assert.equal(uil.status, 200, uil.text);
        const [row] = rows(uil.json);
        assert.ok(row.Picture, 'the user has a picture');
        const expected = `${spemu.server.url}/_layouts/15/userphoto.aspx?size=L&accountname=${enc(email)}`;
        assert.equal(row.Picture.Url, expected);
        assert.equal(row.Picture.Description, expected);
        if (dialect.verbose) assert.equal(row.Picture.__metadata.type, 'SP.FieldUrlValue');

        // The account name the profile manager takes: the row's claims login.
        const named = await call(`${api}/Web/Lists/getByTitle('User Information List')/items(${userId})?$select=Name`, { accept: dialect.accept });
        const account = body(named.json).Name as string;
        assert.match(account, /^i:0#\.f\|membership\|/);

        // 3. PictureUrl from the profile manager, with the alias and $select of the spec.
        const profile = await call(`${api}/SP.UserProfiles.PeopleManager/GetPropertiesFor(accountName=@v)?@v='${enc(account)}'&$select=PictureUrl`, { accept: dialect.accept });
        assert.equal(profile.status, 200, profile.text);
        const pictureUrl = body(profile.json).PictureUrl as string;
        assert.equal(pictureUrl, expected);

        // 4. The image itself: a PNG of the size asked for.
        const image = await call(pictureUrl);
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('content-type'), 'image/png');
        assert.ok(image.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
        const d = await describeImage(image.bytes);
        assert.deepEqual([d.width, d.height, d.format], [240, 240, 'png']);
        for (const [size, px] of [['S', 48], ['M', 72]] as const) {
          const smaller = await call(pictureUrl.replace('size=L', `size=${size}`));
          assert.ok(smaller.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
          assert.deepEqual([(await describeImage(smaller.bytes)).width, (await describeImage(smaller.bytes)).height], [px, px]);
        }
      }
    });
  }
});
