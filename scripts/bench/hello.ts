/** The machine's baseline: the smallest Koa app, answering every path with a tiny JSON body. */
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { hello: 'world' };
});
app.listen(Number(process.env.PORT), '127.0.0.1');
