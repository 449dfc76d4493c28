// The entry module of the modhost example: it imports a TypeScript module, a JSON file and a directory's index.js.
import { scale } from "./lib/scale.ts";
import config from "./config.json";
import greet from "./lib";

onmessage = (e) => {
  postMessage(`${greet(config.name)}: ${e.data} scaled by ${config.factor} is ${scale(e.data, config.factor)}`);
};
