// What a site script's JSON must be for SharePoint to store it (domain/site-scripts.ts): an
// object with a non-empty `actions` array of known verbs, and known subactions under the verbs
// that take them, compared exactly; anything else is SharePoint's ArgumentOutOfRangeException.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSiteScript } from '../../src/domain/site-scripts.ts';
import { DomainError } from '../../src/domain/errors.ts';

const refused = (text: string) =>
  assert.throws(() => checkSiteScript(text), (e: unknown) => e instanceof DomainError && e.reason === 'siteScriptInvalid', text);

describe('site script content', () => {
  it('takes the documented shape, with a byte order mark, unknown properties and any values inside an action', () => {
    checkSiteScript('{"$schema":"schema.json","actions":[{"verb":"applyTheme","themeName":"x"}],"bindata":{},"version":1}');
    checkSiteScript('\uFEFF{"actions":[{"verb":"createSPList","listName":"L","templateType":100,"subactions":[{"verb":"setDescription","description":"d"},{"verb":"addSPView","name":"v"}]}],"extra":true}');
    checkSiteScript('{"actions":[{"verb":"createContentType","name":"C","subactions":[{"verb":"addSiteColumn","internalName":"x"}]},{"verb":"triggerFlow","url":42}]}');
  });

  it('refuses what is not a script: not JSON, not an object, no or empty actions, an action without a known verb', () => {
    for (const text of ['', 'not json', '[]', '"x"', '{}', '{"actions":{}}', '{"actions":[]}', '{"actions":[null]}', '{"actions":[{"themeName":"x"}]}',
      '{"actions":[{"verb":"ApplyTheme"}]}', '{"actions":[{"verb":"makeCoffee"}]}', '{"actions":[{"verb":42}]}']) refused(text);
  });

  it('refuses subactions a verb does not take, or of another case', () => {
    refused('{"actions":[{"verb":"createSPList","listName":"L","subactions":[{"verb":"SetDescription"}]}]}');
    refused('{"actions":[{"verb":"createSPList","listName":"L","subactions":{}}]}');
    refused('{"actions":[{"verb":"createContentType","name":"C","subactions":[{"verb":"addSPView"}]}]}');
    refused('{"actions":[{"verb":"applyTheme","subactions":[]}]}');
  });
});
