import { encodeEmailEntities, esc, jsonLdText } from './json-ld.js';

describe('esc', () => {
  it('escapes the four HTML characters', () => {
    expect(esc(`Fish & "Chips" <b>`)).toBe('Fish &amp; &quot;Chips&quot; &lt;b&gt;');
  });

  it('escapes existing entities again', () => {
    expect(esc('AT&amp;T')).toBe('AT&amp;amp;T');
  });

  it('writes each line break as backslash n', () => {
    expect(esc('a\nb\r\nc\rd')).toBe('a\\nb\\nc\\nd');
  });

  it('leaves other text untouched', () => {
    expect(esc("Harbour Lantern Walk – it's free")).toBe("Harbour Lantern Walk – it's free");
  });
});

describe('jsonLdText', () => {
  it('uses the rendered excerpt when present (spec event example)', () => {
    const text = jsonLdText('<p>Evening walk with lanterns.</p>', '<p>Bring a lantern.</p>\n<p>The route is step-free.</p>');
    expect(text).toBe('&lt;p&gt;Evening walk with lanterns.&lt;/p&gt;\\n');
    expect(JSON.stringify({ description: text })).toBe('{"description":"&lt;p&gt;Evening walk with lanterns.&lt;/p&gt;\\\\n"}');
  });

  it('falls back to the rendered description (spec venue example)', () => {
    expect(jsonLdText('', '<p>Covered pavilion at the end of the old pier.</p>')).toBe(
      '&lt;p&gt;Covered pavilion at the end of the old pier.&lt;/p&gt;\\n',
    );
  });

  it('escapes line breaks between rendered blocks', () => {
    expect(jsonLdText('', '<p>a</p>\n<p>b</p>')).toBe('&lt;p&gt;a&lt;/p&gt;\\n&lt;p&gt;b&lt;/p&gt;\\n');
  });

  it('is empty when both are empty', () => {
    expect(jsonLdText('', '')).toBe('');
  });
});

describe('encodeEmailEntities', () => {
  it('encodes every character as a decimal reference', () => {
    expect(encodeEmailEntities('hi@t')).toBe('&#104;&#105;&#64;&#116;');
  });

  it('matches the spec organizer example', () => {
    expect(encodeEmailEntities('hi@tidewater.example')).toBe(
      '&#104;&#105;&#64;&#116;&#105;&#100;&#101;&#119;&#97;&#116;&#101;&#114;&#46;&#101;&#120;&#97;&#109;&#112;&#108;&#101;',
    );
  });

  it('encodes characters outside the BMP as one reference', () => {
    expect(encodeEmailEntities('ü😀')).toBe('&#252;&#128512;');
  });

  it('returns an empty string for no email', () => {
    expect(encodeEmailEntities('')).toBe('');
  });
});
