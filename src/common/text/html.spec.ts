import { htmlToText, renderRichText, sanitizeRichText, stripTags } from './html.js';
import { randomTexts } from '../../../test/support/random-text.js';

describe('stripTags', () => {
  it('removes tags without entity-encoding the text', () => {
    expect(stripTags('Fish & Chips <b>now</b>')).toBe('Fish & Chips now');
  });

  it('keeps entities typed by the user as written', () => {
    expect(stripTags('Tom &amp; Jerry &lt;3')).toBe('Tom &amp; Jerry &lt;3');
  });

  it('keeps quotes and a free-standing less-than sign', () => {
    expect(stripTags(`"Rock" 'n' roll: 3 < 5 > 4`)).toBe(`"Rock" 'n' roll: 3 < 5 > 4`);
  });

  it('drops scripts and styles together with their content', () => {
    expect(stripTags('<script>alert("x")</script>Hello<style>p{color:red}</style> World')).toBe('Hello World');
  });

  it('drops comments and attributes and trims', () => {
    expect(stripTags('  <p class="x" onclick="y()">A<!-- hidden --> B</p>\n')).toBe('A B');
  });

  it('removes tags that the removal of others puts together', () => {
    expect(stripTags('<<script>script>alert(1)<</script>/script>')).toBe('');
    expect(stripTags('<<b>b>x<</b>/b>')).toBe('x');
    expect(stripTags('<scr<script>ipt>alert(1)</scr</script>ipt>')).toBe('ipt>alert(1)ipt>');
    expect(stripTags('a <<<<i>i>i>i>b')).toBe('a b');
  });

  it('gives back its own answers unchanged', () => {
    for (const text of ['<<b>b>x<</b>/b>', '3 < 4 <i>and</i> 5 > 2', 'Tom &amp; Jerry <b>&lt;3</b>', 'a <<<script>script>script>x'])
      expect(stripTags(stripTags(text))).toBe(stripTags(text));
  });

  it('keeps unicode text', () => {
    expect(stripTags('<em>Straße</em> 東京')).toBe('Straße 東京');
  });

  it('gives text without a tag the same answer with and without a tag before it', () => {
    // text without `<` skips the HTML parser; an empty tag in front sends the same text through it
    const pieces = [
      'a',
      'Z',
      '9',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\0',
      '&',
      '&amp;',
      '&lt;',
      '&#60;',
      '&#x3c;',
      '&nbsp;',
      '&copy',
      ';',
      '#',
      '>',
      '"',
      "'",
      '=',
      '/',
      '!',
      '-',
      '--',
      'é',
      'ß',
      '東京',
      '😀',
      '\ud83d',
      '\u00a0',
      '\u2028',
      '\ufeff',
    ];
    for (const text of randomTexts(pieces, 2000, 12, 7)) {
      expect([text, stripTags(text)]).toEqual([text, stripTags(`<b></b>${text}`)]);
    }
  });
});

describe('sanitizeRichText', () => {
  it('keeps the allowed formatting markup', () => {
    const html =
      '<h2>Title</h2><p><strong>S</strong><b>B</b><em>E</em><i>I</i><u>U</u><s>X</s></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><pre><code>c</code></pre>' +
      '<figure><img src="https://img.example/a.png" alt="A" width="10" height="20" /><figcaption>f</figcaption></figure>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table><hr /><div><span>s</span></div>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps h1 to h6 and line breaks', () => {
    const html = '<h1>1</h1><h3>3</h3><h6>6</h6>Line<br />Next';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps href and title on links and drops other attributes', () => {
    expect(sanitizeRichText('<a href="https://x.example/" title="T" target="_blank" class="c">x</a>')).toBe(
      '<a href="https://x.example/" title="T">x</a>',
    );
    expect(sanitizeRichText('<p style="color:red" class="lead" id="i">p</p>')).toBe('<p>p</p>');
    expect(sanitizeRichText('<img src="/a.png" srcset="/b.png 2x" title="t" />')).toBe('<img src="/a.png" />');
  });

  it('keeps an empty alt text on images', () => {
    expect(sanitizeRichText('<img src="/a.png" alt="" />')).toBe('<img src="/a.png" alt="" />');
  });

  it('removes disallowed tags but keeps their text', () => {
    expect(sanitizeRichText('<section><article>Kept <font>text</font></article></section>')).toBe('Kept text');
  });

  it('removes scripts, styles and their content', () => {
    expect(sanitizeRichText('<p>a</p><script>alert(1)</script><style>p{}</style><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });

  it('removes event handler attributes', () => {
    expect(sanitizeRichText('<p onclick="evil()">x</p><img src="/a.png" onerror="evil()" />')).toBe('<p>x</p><img src="/a.png" />');
  });

  it.each([
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JavaScript:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="java\tscript:alert(1)">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
  ])('removes a dangerous link URL: %s', (html) => {
    expect(sanitizeRichText(html)).toBe('<a>x</a>');
  });

  it('removes data: image sources', () => {
    expect(sanitizeRichText('<img src="data:image/png;base64,AAAA" alt="x" />')).toBe('<img alt="x" />');
  });

  it('allows http, https, mailto and relative URLs', () => {
    for (const url of ['http://a.example/', 'https://a.example/x', 'mailto:hi@a.example', '/events/7', '#top', 'page.html']) {
      expect(sanitizeRichText(`<a href="${url}">x</a>`)).toBe(`<a href="${url}">x</a>`);
    }
  });

  it('returns plain ampersands and greater-than signs as typed (documented choice)', () => {
    expect(sanitizeRichText('Fish & Chips')).toBe('Fish & Chips');
    expect(sanitizeRichText('Fish &amp; Chips')).toBe('Fish & Chips');
    expect(sanitizeRichText('5 > 3')).toBe('5 > 3');
  });

  it('escapes an ampersand that could be read as a character reference', () => {
    expect(sanitizeRichText('AT&T')).toBe('AT&amp;T');
    expect(sanitizeRichText('write &amp;copy; literally')).toBe('write &amp;copy; literally');
  });

  it('never turns escaped markup into real tags', () => {
    expect(sanitizeRichText('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script>alert(1)&lt;/script>');
    expect(sanitizeRichText('3 < 5')).toBe('3 &lt; 5');
  });

  it('escapes ampersands in URLs and quotes in attributes', () => {
    expect(sanitizeRichText('<a href="/s?a=1&b=2" title="say &quot;hi&quot;">x</a>')).toBe(
      '<a href="/s?a=1&amp;b=2" title="say &quot;hi&quot;">x</a>',
    );
  });

  it('decodes named entities to characters', () => {
    expect(sanitizeRichText('Caf&eacute;&nbsp;Noir &copy; 2027')).toBe('Café\u00a0Noir © 2027');
  });

  it('is stable when applied twice', () => {
    for (const input of ['Fish & Chips', 'AT&T', '&lt;b&gt;', '<p>a &amp; b</p>\n\nc > d']) {
      const once = sanitizeRichText(input);
      expect(sanitizeRichText(once)).toBe(once);
    }
  });

  it('keeps line breaks inside the text and trims the ends', () => {
    expect(sanitizeRichText('  Line one\nLine two\n\nSecond  ')).toBe('Line one\nLine two\n\nSecond');
  });
});

describe('renderRichText', () => {
  it('wraps a plain sentence in a paragraph', () => {
    expect(renderRichText('Bring a lantern.')).toBe('<p>Bring a lantern.</p>');
  });

  it('splits blocks at blank lines and turns single line breaks into <br />', () => {
    expect(renderRichText('Line one\nLine two\n\nSecond paragraph')).toBe('<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>');
  });

  it('keeps empty text empty', () => {
    expect(renderRichText('')).toBe('');
    expect(renderRichText(' \n\n ')).toBe('');
  });

  it('normalises CR LF and CR line breaks', () => {
    expect(renderRichText('a\r\nb\r\rc')).toBe('<p>a<br />\nb</p>\n<p>c</p>');
  });

  it('treats three or more line breaks and whitespace-only lines as one separator', () => {
    expect(renderRichText('a\n\n\n\nb\n  \nc')).toBe('<p>a</p>\n<p>b</p>\n<p>c</p>');
  });

  it('keeps blocks that start with a block-level tag as they are', () => {
    const stored = '<p>Already</p>\n\n<ul>\n<li>one</li>\n</ul>\n\n<h2 class="x">Head</h2>\n\n<hr />\n\nplain';
    expect(renderRichText(stored)).toBe('<p>Already</p>\n<ul>\n<li>one</li>\n</ul>\n<h2 class="x">Head</h2>\n<hr />\n<p>plain</p>');
  });

  it.each([
    '<div>d</div>',
    '<h1>h</h1>',
    '<h6>h</h6>',
    '<ol><li>x</li></ol>',
    '<li>x</li>',
    '<blockquote>q</blockquote>',
    '<pre>p</pre>',
    '<table><tr><td>t</td></tr></table>',
    '<figure>f</figure>',
    '<hr>',
  ])('recognises %s as block-level', (block) => {
    expect(renderRichText(block)).toBe(block);
  });

  it('wraps blocks that start with inline tags', () => {
    expect(renderRichText('<strong>Bold</strong> start\nnext')).toBe('<p><strong>Bold</strong> start<br />\nnext</p>');
    expect(renderRichText('<span>s</span>')).toBe('<p><span>s</span></p>');
    expect(renderRichText('<param>x')).toBe('<p><param>x</p>');
  });
});

describe('htmlToText', () => {
  it('gives the text of an HTML message: tags gone, entities decoded, white space made one space', () => {
    expect(htmlToText('<strong>Error:</strong> Sorry, you&#8217;re not\n allowed &amp; <em>more</em>.')).toBe(
      'Error: Sorry, you\u2019re not allowed & more.',
    );
    expect(htmlToText('plain')).toBe('plain');
  });
});
