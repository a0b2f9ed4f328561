#!/usr/bin/env node
// The askuser command of the askuser npm package. It runs the askuser
// program that npm installed beside it, from the package of this platform
// (@askuser/linux-x64, @askuser/darwin-arm64, ...: optional dependencies, of
// which npm installs the one whose os and cpu match), and is nothing but a
// door to it: the arguments, the environment, stdin, stdout, stderr and the
// terminal are the program's own, and its exit code or the signal that
// ended it is this command's.
'use strict';

const { spawn } = require('child_process');
const { constants } = require('os');

const otherWay =
  'install askuser another way: go install github.com/askuser/askuser@latest, ' +
  'or an archive from https://github.com/askuser/askuser/releases';

// fail ends the command with one line that says what is wrong and what to do.
function fail(message) {
  process.stderr.write(`askuser: ${message}\n`);
  process.exit(1);
}

// binaryPath is the program to run: ASKUSER_BINARY_PATH when set (as
// ESBUILD_BINARY_PATH is for esbuild), else this platform's package's.
function binaryPath() {
  if (process.env.ASKUSER_BINARY_PATH) {
    return process.env.ASKUSER_BINARY_PATH;
  }
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `@askuser/${platform}`;
  const { optionalDependencies = {} } = require('../package.json');
  if (!Object.prototype.hasOwnProperty.call(optionalDependencies, pkg)) {
    fail(`there is no npm package of askuser for ${platform}; ${otherWay}`);
  }
  const exe = process.platform === 'win32' ? 'askuser.exe' : 'askuser';
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(
      `${pkg}, the program for ${platform}, is not installed (left out by --omit=optional or ` +
        `--no-optional?): install askuser again with its optional dependencies, or ${otherWay}`,
    );
  }
}

// A signal sent to this command goes on to the program. Ctrl+C and a
// terminal that hangs up signal both at once, since they share the
// terminal's process group: so this command never dies of one, but waits
// for the program to finish as it sees fit (restoring the terminal, saying
// why it stopped). On Windows a console's Ctrl+C reaches every process on
// it, and kill() would end the program at once: there it is only waited
// for. The handlers are in place before the program starts, so that no
// signal finds this command unguarded.
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let child;
function forward(signal) {
  if (process.platform !== 'win32') {
    child.kill(signal);
  }
}
for (const signal of signals) {
  process.on(signal, forward);
}

const bin = binaryPath();
child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });

child.on('error', (err) => {
  fail(`cannot run ${bin}: ${err.message}`);
});

child.on('exit', (code, signal) => {
  if (signal === null) {
    process.exit(code);
  }
  // Die of the same signal, so that the shell sees what it would of the
  // program itself; where that cannot be, exit as a shell reports it.
  for (const s of signals) {
    process.removeAllListeners(s);
  }
  process.kill(process.pid, signal);
  process.exit(128 + (constants.signals[signal] || 0));
});
