// A webhook receiver for the suite's subscription tests: answers SharePoint's validation
// request (POST ?validationtoken=…) with the token as text/plain, and any notification with 200.
// Usage: node receiver.mjs <port>   (0 picks a free one; the line it prints says which)

import http from 'node:http';

const port = Number(process.argv[2] ?? 8099);
const server = http.createServer((req, res) => {
  const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('validationtoken');
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(token ?? '');
  });
});
server.listen(port, '127.0.0.1', () => console.log(`receiver on http://127.0.0.1:${server.address().port}/`));
