/** The stylesheet served at /static/style.css (the CSP allows no inline style). High contrast, no external fonts. */
export const STYLE_CSS = `
body { font: 16px/1.5 system-ui, sans-serif; color: #111; background: #fff; margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; }
header { border-bottom: 1px solid #888; padding: 0.5rem 0; }
.site { font-weight: bold; margin: 0; }
.clock { color: #333; font-size: 0.9rem; margin: 0; }
nav a, nav button { margin-right: 0.25rem; }
a { color: #0645ad; }
a:focus, button:focus, input:focus, select:focus { outline: 3px solid #1a73e8; outline-offset: 2px; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #999; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.baseline { background: #f2f2f2; }
.tag { border: 1px solid #555; border-radius: 3px; font-size: 0.8rem; padding: 0 0.25rem; }
.error { color: #a00; font-weight: bold; }
.notice { background: #fff8d0; border: 1px solid #b59b00; padding: 0.5rem; }
form.inline { display: inline; }
pre.report { background: #f6f6f6; border: 1px solid #ccc; overflow-x: auto; padding: 0.5rem; }
code { word-break: break-all; }
.state-failed { color: #a00; }
.state-scored { color: #060; }
fieldset.dimension { border: 1px solid #999; margin: 0.5rem 0; }
fieldset.dimension.current { border: 3px solid #1a73e8; background: #f3f8ff; }
ol.rubric { list-style: none; padding-left: 0.5rem; margin: 0.25rem 0; }
.text { white-space: pre-wrap; }
.response { border-left: 4px solid #555; padding: 0.25rem 0.75rem; background: #f6f6f6; }
kbd { border: 1px solid #555; border-radius: 3px; padding: 0 0.25rem; font-size: 0.85rem; }
`
