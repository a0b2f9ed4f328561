// Package view holds the views that show the inbox's queue to the person
// and take their answers, one a file. Terminal is the screen of a
// terminal, with the screens and keys of askuser's terminal UI. Line is the
// view of numbered line prompts: for input that is not a terminal
// (scripts, tests), and for screen readers and terminals without cursor
// control. Web is the queue on a web page, and Log the lines of an inbox
// that serves without a terminal.
package view
