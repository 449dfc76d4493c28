// internal/parse_args (node/util.go): util.parseArgs, as Node documents it (options of type string and boolean,
// short forms, groups of short booleans, --opt=value, multiple, default, strict, allowPositionals,
// allowNegative, tokens).
(function (N, require, core) {
'use strict';

function fail(code, msg, Ctor) {
	const e = new (Ctor || TypeError)(msg);
	e.code = code;
	return e;
}

function parseArgs(config) {
	if (config === undefined) config = {};
	const args = config.args !== undefined ? config.args : (typeof globalThis.process === 'object' ? globalThis.process.argv.slice(2) : []);
	const strict = config.strict !== undefined ? !!config.strict : true;
	const allowPositionals = config.allowPositionals !== undefined ? !!config.allowPositionals : !strict;
	const allowNegative = !!config.allowNegative;
	const wantTokens = !!config.tokens;
	const options = config.options !== undefined ? config.options : {};
	if (!Array.isArray(args)) throw fail('ERR_INVALID_ARG_TYPE', 'The "args" argument must be an instance of Array.');
	const shorts = new Map();
	for (const name of Object.keys(options)) {
		const o = options[name];
		if (o === null || typeof o !== 'object') throw fail('ERR_INVALID_ARG_TYPE', 'The "options.' + name + '" property must be of type object.');
		if (o.type !== 'string' && o.type !== 'boolean') {
			throw fail('ERR_INVALID_ARG_VALUE', "The property 'options." + name + ".type' must be one of: 'string', 'boolean'. Received " + require('util').inspect(o.type));
		}
		if (o.short !== undefined) {
			if (typeof o.short !== 'string' || o.short.length !== 1) {
				throw fail('ERR_INVALID_ARG_VALUE', "The property 'options." + name + ".short' must be a single character. Received " + require('util').inspect(o.short));
			}
			shorts.set(o.short, name);
		}
	}
	const values = Object.create(null);
	const positionals = [];
	const tokens = [];
	const store = function (name, value, rawName) {
		const o = options[name];
		if (strict && o !== undefined) {
			if (o.type === 'string' && typeof value !== 'string') {
				throw fail('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '" + (o.short ? '-' + o.short + ', ' : '') + '--' + name + " <value>' argument missing");
			}
			if (o.type === 'boolean' && typeof value === 'string') {
				throw fail('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '" + (o.short ? '-' + o.short + ', ' : '') + '--' + name + "' does not take an argument");
			}
		}
		if (strict && o === undefined) {
			const hint = rawName[1] !== '-' ? '' : '';
			throw fail('ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '" + rawName + "'" + hint +
				(rawName.startsWith('--') ? '' : '') + (allowPositionals ? ". To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"" + rawName + "\"" : ''));
		}
		if (value === undefined) value = true;
		if (o !== undefined && o.multiple) {
			if (values[name] === undefined) values[name] = [];
			values[name].push(value);
		} else {
			values[name] = value;
		}
	};
	let i = 0;
	while (i < args.length) {
		const arg = String(args[i]);
		const index = i;
		i++;
		if (arg === '--') {
			if (wantTokens) tokens.push({ kind: 'option-terminator', index: index });
			for (; i < args.length; i++) {
				if (!allowPositionals && strict) {
					throw fail('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument '" + args[i] + "'. This command does not take positional arguments");
				}
				positionals.push(args[i]);
				if (wantTokens) tokens.push({ kind: 'positional', index: i, value: args[i] });
			}
			break;
		}
		if (arg.length > 1 && arg[0] === '-' && arg[1] !== '-') {
			// -f, -fvalue, -abc (booleans), -f value
			const letters = arg.slice(1);
			for (let j = 0; j < letters.length; j++) {
				const ch = letters[j];
				const name = shorts.has(ch) ? shorts.get(ch) : ch;
				const o = options[name];
				if (o !== undefined && o.type === 'string') {
					let value, inline;
					if (j + 1 < letters.length) { value = letters.slice(j + 1); inline = true; }
					else if (i < args.length && !(strict && String(args[i]).startsWith('-'))) { value = args[i]; i++; inline = false; }
					store(name, value, '-' + ch);
					if (wantTokens) tokens.push({ kind: 'option', name: name, rawName: '-' + ch, index: index, value: value, inlineValue: inline });
					break;
				}
				store(name, undefined, '-' + ch);
				if (wantTokens) tokens.push({ kind: 'option', name: name, rawName: '-' + ch, index: index, value: undefined, inlineValue: undefined });
			}
			continue;
		}
		if (arg.startsWith('--') && arg.length > 2) {
			const eq = arg.indexOf('=');
			let name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
			const rawName = eq >= 0 ? arg.slice(0, eq) : arg;
			let value, inline;
			if (eq >= 0) { value = arg.slice(eq + 1); inline = true; }
			else if (options[name] !== undefined && options[name].type === 'string' && i < args.length &&
				!(strict && String(args[i]).startsWith('-'))) { value = args[i]; i++; inline = false; }
			if (allowNegative && name.startsWith('no-') && value === undefined && options[name.slice(3)] !== undefined &&
				options[name.slice(3)].type === 'boolean') {
				name = name.slice(3);
				store(name, false, rawName);
			} else {
				store(name, value, rawName);
			}
			if (wantTokens) tokens.push({ kind: 'option', name: name, rawName: rawName, index: index, value: value, inlineValue: inline });
			continue;
		}
		if (!allowPositionals && strict) {
			throw fail('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument '" + arg + "'. This command does not take positional arguments");
		}
		positionals.push(arg);
		if (wantTokens) tokens.push({ kind: 'positional', index: index, value: arg });
	}
	for (const name of Object.keys(options)) {
		const d = options[name].default;
		if (d !== undefined && values[name] === undefined) values[name] = d;
	}
	const result = { values: values, positionals: positionals };
	if (wantTokens) result.tokens = tokens;
	return result;
}

return { parseArgs: parseArgs };
})
