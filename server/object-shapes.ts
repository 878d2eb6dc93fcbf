import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";

/**
 * How many of its first objects V8 watches before it fixes the room a class's objects keep for
 * properties inside themselves ("in-object slack tracking": 7 in V8 11–13); a few more for margin.
 */
const SHAPE_SAMPLES = 16;

/**
 * Makes V8 settle the layout of node:http's request and response objects before the first request
 * (docs/decisions/0085-hit-path-shapes-and-memory.md). V8 sizes a class's objects from the first 7
 * it constructs, by the properties those objects still show when the 7th is made. If a full garbage
 * collection runs between the first and the 7th — here the idle collection after the start-up
 * warm-up (app/server/gc.server.ts), with only four requests made — their shapes are gone by then,
 * and V8 concludes the objects need no room at all: every later ServerResponse was built out of line
 * and switched to a slow dictionary of properties while its constructor ran (node sets 10 symbol-keyed
 * properties, and V8 allows 12 out-of-line keyed ones), every IncomingMessage and its ReadableState
 * kept all fields out of line. That cost a page-cache hit more than the rest of the hit path. Made
 * here, in a row, before any request, the 7 are alive together and the layout is the constructors'.
 */
export function settleHttpObjectShapes(): void {
  for (let i = 0; i < SHAPE_SAMPLES; i++) {
    const socket = new Socket();
    const req = new IncomingMessage(socket);
    req.method = "GET";
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    new ServerResponse(req);
  }
}
