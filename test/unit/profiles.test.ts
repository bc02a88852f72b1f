// The pure parts of user profiles and photos: account names, URLs, timestamps, image sniffing.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { accountAddress, decodeBmp, dotNetSeconds, imageType, personUrl, personalUrl } from '../../src/identity/profiles.ts';
import { initialsOf } from '../../src/fronts/layouts/userphoto.ts';
import { bmp } from '../helpers/profiles.ts';

it('accountAddress: claims login (any case), UPN or mail', () => {
  assert.equal(accountAddress('i:0#.f|membership|alice@contoso.com'), 'alice@contoso.com');
  assert.equal(accountAddress('I:0#.F|MEMBERSHIP|Alice@Contoso.com'), 'Alice@Contoso.com');
  assert.equal(accountAddress('  alice@contoso.com '), 'alice@contoso.com');
});

it('personUrl encodes everything but letters and digits, upper-case hex (the CONFIRMED CLI sample)', () => {
  assert.equal(personUrl('https://contoso-my.sharepoint.com:443', 'i:0#.f|membership|johndoe@contoso.onmicrosoft.com'),
    'https://contoso-my.sharepoint.com:443/Person.aspx?accountname=i%3A0%23%2Ef%7Cmembership%7Cjohndoe%40contoso%2Eonmicrosoft%2Ecom');
  assert.equal(personUrl('http://h', 'i:0#.f|membership|zoë@x.com'), 'http://h/Person.aspx?accountname=i%3A0%23%2Ef%7Cmembership%7Czo%C3%AB%40x%2Ecom');
});

it('personalUrl follows the OneDrive pattern', () => {
  const user = { upn: 'John.Doe@contoso.onmicrosoft.com' } as Parameters<typeof personalUrl>[1];
  assert.equal(personalUrl('http://h:1', user), 'http://h:1/personal/john_doe_contoso_onmicrosoft_com/');
});

it('dotNetSeconds: seconds since 0001-01-01, the scale of SPS-PictureTimestamp', () => {
  assert.equal(dotNetSeconds('1970-01-01T00:00:00Z'), '62135596800');
  // The CLI sample's 63799442436 (§4.2) is a moment of September 2022 on this scale.
  assert.equal(dotNetSeconds('2022-09-22T11:20:36Z'), '63799442436');
});

it('imageType sniffs PNG, JPEG and BMP magic numbers only', () => {
  assert.equal(imageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
  assert.equal(imageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  assert.equal(imageType(bmp(2, 2, { r: 1, g: 2, b: 3 })), 'image/bmp');
  assert.equal(imageType(Buffer.from('GIF89a')), undefined);
  assert.equal(imageType(Buffer.from('BM')), undefined);
  assert.equal(imageType(Buffer.alloc(0)), undefined);
});

it('decodeBmp reads 24-bit bottom-up bitmaps and refuses the rest', () => {
  const decoded = decodeBmp(bmp(3, 2, { r: 10, g: 20, b: 30 }))!;
  assert.deepEqual([decoded.width, decoded.height], [3, 2]);
  assert.deepEqual([...decoded.pixels.subarray(0, 6)], [10, 20, 30, 10, 20, 30]);
  const truncated = bmp(30, 30, { r: 0, g: 0, b: 0 }).subarray(0, 200);
  assert.equal(decodeBmp(truncated), undefined);
  const eightBit = bmp(2, 2, { r: 0, g: 0, b: 0 });
  eightBit.writeUInt16LE(8, 28);
  assert.equal(decodeBmp(eightBit), undefined);
});

it('initialsOf: from the name asked for', () => {
  assert.equal(initialsOf('john.doe@contoso.com'), 'JD');
  assert.equal(initialsOf('i:0#.f|membership|alice@contoso.com'), 'A');
  assert.equal(initialsOf('mary-jane_watson@x'), 'MJ');
  assert.equal(initialsOf(''), '?');
  assert.equal(initialsOf('émile.zola@x'), 'ÉZ');
});
