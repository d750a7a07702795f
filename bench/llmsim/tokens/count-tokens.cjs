// Counts tokens of text files with two real tokenizers (Llama-3's BPE and OpenAI's o200k), for
// calibrating the LLM policy's token estimate (docs/llm-policy.md, "Counting tokens").
// Needs node and the npm packages llama3-tokenizer-js and gpt-tokenizer, installed outside the tree:
//   npm install --prefix DIR llama3-tokenizer-js@1.2.0 gpt-tokenizer@4.0.0
//   NODE_PATH=DIR/node_modules node count-tokens.cjs FILE...
// Prints one JSON line per file: {"file", "chars", "llama3", "o200k"} (chars = UTF-8 bytes, as the
// policy counts them).
const fs = require('fs');
const llama3 = require('llama3-tokenizer-js').default;
const o200k = require('gpt-tokenizer/encoding/o200k_base');
for (const file of process.argv.slice(2)) {
    const text = fs.readFileSync(file, 'utf8');
    const row = {
        file,
        chars: Buffer.byteLength(text, 'utf8'),
        llama3: llama3.encode(text, { bos: false, eos: false }).length,
        o200k: o200k.encode(text).length,
    };
    console.log(JSON.stringify(row));
}
