/** The web inbox: a list of messages and the selected one, read from the JSON API by a small script. */
export const inboxPage = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Caixa de e-mails de teste</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #1f2933; background: #f4f6f8; }
  header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; justify-content: space-between; padding: 12px 16px; background: #0b4f6c; color: #fff; }
  header h1 { margin: 0; font-size: 18px; }
  header small { opacity: .85; }
  button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid #cbd2d9; background: #fff; color: #1f2933; cursor: pointer; }
  button:focus-visible, a:focus-visible, li:focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
  main { display: grid; grid-template-columns: minmax(260px, 360px) 1fr; min-height: calc(100vh - 56px); }
  #list { margin: 0; padding: 0; list-style: none; border-right: 1px solid #d9e2ec; background: #fff; overflow-y: auto; }
  #list li { padding: 10px 14px; border-bottom: 1px solid #e4e7eb; cursor: pointer; }
  #list li[aria-selected="true"] { background: #e3f2fd; }
  #list .subject { font-weight: 600; display: block; }
  #list .meta { color: #52606d; font-size: 13px; display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  #view { padding: 16px; overflow: auto; }
  #view h2 { margin: 0 0 8px; font-size: 20px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 12px; font-size: 14px; }
  dt { color: #52606d; }
  dd { margin: 0; word-break: break-word; }
  .tabs { display: flex; gap: 6px; margin: 12px 0 8px; }
  .tabs button[aria-pressed="true"] { background: #0b4f6c; color: #fff; border-color: #0b4f6c; }
  iframe { width: 100%; min-height: 70vh; border: 1px solid #d9e2ec; border-radius: 6px; background: #fff; }
  pre { white-space: pre-wrap; word-break: break-word; background: #fff; border: 1px solid #d9e2ec; border-radius: 6px; padding: 12px; margin: 0; }
  .empty { color: #52606d; padding: 16px; }
  @media (max-width: 720px) { main { grid-template-columns: 1fr; } #list { max-height: 40vh; border-right: 0; border-bottom: 1px solid #d9e2ec; } }
</style>
</head>
<body>
<header>
  <div><h1>Caixa de e-mails de teste</h1><small>Tudo o que chega por SMTP fica aqui; nada é entregue de verdade.</small></div>
  <div><button id="refresh" type="button">Atualizar</button> <button id="clear" type="button">Apagar todas</button></div>
</header>
<main>
  <ul id="list" role="listbox" aria-label="Mensagens recebidas"></ul>
  <section id="view" aria-live="polite"><p class="empty">Selecione uma mensagem para ler.</p></section>
</main>
<script src="/inbox.js"></script>
</body>
</html>
`;

export const inboxScript = `'use strict';
const list = document.getElementById('list');
const view = document.getElementById('view');
let messages = [];
let selected = null;
let mode = 'html';

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
const when = (iso) => new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

let shown = '';
async function load() {
  const response = await fetch('/api/email');
  messages = await response.json();
  const ids = messages.map((m) => m.id).join();
  if (ids === shown) return;
  shown = ids;
  renderList();
  if (selected && !messages.some((m) => m.id === selected)) { selected = null; renderView(); }
}

function renderList() {
  list.replaceChildren();
  if (messages.length === 0) {
    list.append(el('li', { className: 'empty', textContent: 'Nenhuma mensagem recebida ainda.' }));
    return;
  }
  for (const message of messages) {
    const item = el('li', { tabIndex: 0 },
      el('span', { className: 'subject', textContent: message.subject || '(sem assunto)' }),
      el('span', { className: 'meta', textContent: 'Para: ' + message.to.join(', ') }),
      el('span', { className: 'meta', textContent: when(message.date) }));
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', String(message.id === selected));
    const open = () => { selected = message.id; renderList(); renderView(); };
    item.addEventListener('click', open);
    item.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); } });
    list.append(item);
  }
}

function renderView() {
  const message = messages.find((m) => m.id === selected);
  if (!message) { view.replaceChildren(el('p', { className: 'empty', textContent: 'Selecione uma mensagem para ler.' })); return; }
  const details = el('dl');
  for (const [label, value] of [['De', message.from], ['Para', message.to.join(', ')], ['Cc', message.cc.join(', ')], ['Data', when(message.date)]]) {
    if (value) details.append(el('dt', { textContent: label }), el('dd', { textContent: value }));
  }
  if (message.attachments.length) {
    const links = el('dd');
    message.attachments.forEach((attachment, index) => {
      if (index) links.append(', ');
      links.append(el('a', { href: attachment.url, target: '_blank', rel: 'noopener', textContent: attachment.filename + ' (' + Math.ceil(attachment.size / 1024) + ' KB)' }));
    });
    details.append(el('dt', { textContent: 'Anexos' }), links);
  }
  const tabs = el('div', { className: 'tabs' });
  for (const [name, label] of [['html', 'Versão HTML'], ['text', 'Versão texto']]) {
    const button = el('button', { type: 'button', textContent: label });
    button.setAttribute('aria-pressed', String(mode === name));
    button.addEventListener('click', () => { mode = name; renderView(); });
    tabs.append(button);
  }
  let body;
  if (mode === 'html' && message.html) {
    // Sandboxed before it gets its address: the message's HTML never runs scripts here.
    body = el('iframe', { title: 'Conteúdo HTML da mensagem' });
    body.setAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    body.src = '/api/email/' + encodeURIComponent(message.id) + '/html';
  } else {
    body = el('pre', { textContent: message.text || '(mensagem sem versão texto)' });
  }
  view.replaceChildren(el('h2', { textContent: message.subject || '(sem assunto)' }), details, tabs, body);
}

document.getElementById('refresh').addEventListener('click', load);
document.getElementById('clear').addEventListener('click', async () => {
  if (!confirm('Apagar todas as mensagens?')) return;
  await fetch('/api/email/all', { method: 'DELETE' });
  selected = null;
  renderView();
  load();
});
load();
setInterval(load, 3000);
`;
