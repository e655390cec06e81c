// SPDX-License-Identifier: GPL-2.0
/* tdtrace(8) and bash completion from the option table. */
#include <stdbool.h>
#include <string.h>
#include "cli/man.h"
#include "cli/option_table.h"

/* A paragraph macro right after .SH is redundant (mandoc -Tlint says so). */
static bool after_section;

/*
 * @s as roff text: '-' and '\' escaped, a line's leading '.' or '\''
 * made literal, and input lines broken at a space past 64 columns
 * (man(7) style: short source lines; the reader's width is man's job).
 */
static void roff(FILE *out, const char *s)
{
	int column = 0;

	for (; *s; s++) {
		if (*s == ' ' && column > 64) {
			fputc('\n', out);
			column = 0;
			continue;
		}
		if (!column && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		column++;
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

static void section(FILE *out, const char *name)
{
	fprintf(out, ".SH %s\n", name);
	after_section = true;
}

/* Macros and text as they are. */
static void raw(FILE *out, const char *s)
{
	after_section = false;
	fputs(s, out);
}

/* A paragraph of roff text, already free of macros. */
static void para(FILE *out, const char *text)
{
	if (!after_section)
		fputs(".PP\n", out);
	after_section = false;
	roff(out, text);
	fputc('\n', out);
}

/* One option as a tagged paragraph: "-I, --interval=MS" then its help. */
static void option_item(FILE *out, const struct option_row *r)
{
	after_section = false;
	fputs(".TP\n", out);
	if (r->synopsis) {
		fputs("\\fB", out);
		roff(out, r->synopsis);
		fputs("\\fR\n", out);
	} else {
		if (r->letter)
			fprintf(out, "\\fB\\-%c\\fR, ", r->letter);
		fputs("\\fB\\-\\-", out);
		roff(out, r->name);
		fputs("\\fR", out);
		if (r->arg) {
			fputs(r->optional ? "[=\\fI" : "=\\fI", out);
			roff(out, r->arg);
			fputs(r->optional ? "\\fR]" : "\\fR", out);
		}
		fputc('\n', out);
	}
	roff(out, r->help);
	fputc('\n', out);
}

static const char *const json_fields[][2] = {
	{ "schema", "format version, now 2" },
	{ "type", "system, process, thread or cgroup" },
	{ "phase", "interval, or summary for the whole run" },
	{ "mode, model, pmu, smt_on", "topdown or software; the PMU model (perf's name) and PMU" },
	{ "pmu_events", "the perf pmu-events version of the formulas, \"perf v7.3-rc7\"" },
	{ "counts", "raw counts by perf's event names" },
	{ "time_enabled_ns, time_running_ns, multiplexed, scale", "multiplexing, as perf scales" },
	{ "slots, slots_pct", "pipeline slots, scaled, and their share of the system's" },
	{ "tma_*, and perf's PipelineL1/L2 names on AMD",
	  "TopDown metrics in percent of slots, named as perf names them" },
	{ "cpu_ns, cpu_pct", "with --software: CPU time" },
	{ "pid, tid, comm, start_ns, cgroup_id, cgroup, label, container",
	  "who the line is about" },
	{ "conserved, read_errors, task_drops, cgroup_drops",
	  "on the system line: whether every count was accounted for" },
};

void man_write(FILE *out, const char *date)
{
	fprintf(out, ".TH TDTRACE 8 \"%s\" \"tdtrace %s\" \"System Administration\"\n", date,
		TDTRACE_VERSION);
	section(out, "NAME");
	fputs("tdtrace \\- live TopDown microarchitecture analysis per process and cgroup\n", out);
	section(out, "SYNOPSIS");
	raw(out,
	    ".B tdtrace\n[\\fIOPTION\\fR...] [\\fB\\-\\-\\fR \\fICOMMAND\\fR "
	    "[\\fIARG\\fR...]]\n.br\n.B tdtrace report\n[\\fB\\-\\-json\\fR] [\\fIFILE\\fR]\n");
	section(out, "DESCRIPTION");
	para(out, "tdtrace attributes the CPU's TopDown counters (pipeline slots and the "
		  "TopDown metric events, or AMD's pipeline utilisation events) to the task "
		  "switching out at every context switch, with a BPF program on sched_switch, "
		  "and to its cgroup v2. It prints Level 1 and Level 2 per process and per "
		  "cgroup, every interval, as tables or JSON lines, with perf's own formulas "
		  "for the CPU model it runs on.");
	para(out, "tdtrace report decodes JSON lines recorded by tdtrace --json again, with "
		  "this build's formulas: as tables, or as the lines with their metrics "
		  "recomputed (--json).");
	section(out, "OPTIONS");
	for (int g = 0; g < NR_OPTION_GROUPS; g++) {
		const char *heading = option_groups[g].heading;

		if (heading) {
			fputs(".SS ", out);
			roff(out, heading);
			fputc('\n', out);
		}
		for (int i = 0; i < nr_option_rows; i++)
			if (option_rows[i].group == (enum option_group)g && !option_rows[i].hidden)
				option_item(out, &option_rows[i]);
		if (option_groups[g].note)
			para(out, option_groups[g].note);
	}
	section(out, "OUTPUT");
	para(out, "Tables: a header summing the whole system, then processes and cgroups by "
		  "slots. JSON lines (--json): one object per entity per interval, then the "
		  "summary. Main fields:");
	for (size_t i = 0; i < sizeof(json_fields) / sizeof(json_fields[0]); i++) {
		raw(out, ".TP\n.B ");
		roff(out, json_fields[i][0]);
		fputc('\n', out);
		roff(out, json_fields[i][1]);
		fputc('\n', out);
	}
	para(out, "The README lists every field.");
	section(out, "EXIT STATUS");
	raw(out, ".TP\n.B 0\nsuccess, or stopped by SIGINT or SIGTERM\n"
		 ".TP\n.B 1\nruntime failure: privileges, BTF, counters,\n"
		 "a target that does not exist, an output file that cannot be written\n"
		 ".TP\n.B 2\nbad command line, or no TopDown PMU and no \\-\\-software\n"
		 ".TP\n.B 126\nCOMMAND was found but cannot be executed\n"
		 ".TP\n.B 127\nCOMMAND was not found\n");
	para(out, "With COMMAND, tdtrace exits with the command's status.");
	section(out, "FILES");
	raw(out, ".TP\n.I /sys/bus/event_source/devices/cpu*\ncore PMUs: type, format and "
		 "events\n"
		 ".TP\n.I /proc/cpuinfo\nvendor, family, model and stepping: which model's "
		 "formulas apply\n"
		 ".TP\n.I /sys/kernel/btf/vmlinux\nkernel BTF for the BPF program\n"
		 ".TP\n.I /proc/self/mountinfo\nwhere cgroup v2 is mounted\n"
		 ".TP\n.I /run/containerd/io.containerd.runtime.v2.task/k8s.io/*/config.json\n"
		 "containerd's containers' Kubernetes names (\\-\\-runtime\\-root containerd=)\n"
		 ".TP\n.I /run/containers/storage/overlay\\-containers/*/userdata/config.json\n"
		 "CRI\\-O's (\\-\\-runtime\\-root crio\\-run=)\n"
		 ".TP\n.I /var/lib/containers/storage/overlay\\-containers/*/userdata/config.json\n"
		 "CRI\\-O's and podman's (crio=)\n"
		 ".TP\n.I /var/lib/docker/containers/*/config.v2.json\ncri\\-dockerd's (docker=)\n");
	section(out, "EXAMPLES");
	raw(out, ".nf\n"
		 "sudo tdtrace                      # every process and cgroup, every second\n"
		 "sudo tdtrace \\-c system.slice/docker\\-<id>.scope   # one container\n"
		 "sudo tdtrace \\-\\-containers \\-\\-per\\-cgroup  # one row per container\n"
		 "sudo tdtrace \\-\\-group\\-by=pod \\-\\-listen 9466  # Kubernetes pods\n"
		 "sudo tdtrace \\-p 1234 \\-t             # one process, a row per thread\n"
		 "sudo tdtrace \\-\\- make \\-j8           # a command and its children\n"
		 "sudo tdtrace \\-\\-json \\-d 10 \\-o td.jsonl; tdtrace report td.jsonl\n"
		 "tdtrace \\-\\-probe                   # what this machine supports\n"
		 ".fi\n");
	section(out, "NOTES");
	para(out, "Needs root, or CAP_BPF and CAP_PERFMON; once attached tdtrace keeps only "
		  "those two capabilities. Nothing of it has run on TopDown hardware yet: see "
		  "the README's verification section, and make hwcheck.");
	section(out, "SEE ALSO");
	raw(out, ".BR perf\\-stat (1),\n.BR bpftool (8)\n");
}

void completion_write(FILE *out)
{
	fputs("# bash completion for tdtrace, made from its option table\n"
	      "_tdtrace()\n{\n"
	      "\tlocal cur prev\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal i\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\t# after --, the COMMAND and its own arguments\n"
	      "\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
	      "\t\t\t_command_offset $((i + 1))\n\t\t\treturn\n\t\tfi\n"
	      "\tdone\n"
	      "\tif [[ ${COMP_WORDS[1]} == report ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -f -W '--json --help' -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tcase $prev in\n",
	      out);
	/* Options whose value is a file or directory: complete paths. */
	fputs("\t", out);
	for (int i = 0, n = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name || r->hidden || !r->arg || r->optional ||
		    (strcmp(r->arg, "FILE") && strcmp(r->arg, "PATH")))
			continue;
		fprintf(out, "%s--%s", n++ ? "|" : "", r->name);
		if (r->letter)
			fprintf(out, "|-%c", r->letter);
	}
	fputs(")\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn\n\t\t;;\n\t", out);
	/* Other options with a value: nothing to offer. */
	for (int i = 0, n = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name || r->hidden || !r->arg || r->optional || !strcmp(r->arg, "FILE") ||
		    !strcmp(r->arg, "PATH"))
			continue;
		fprintf(out, "%s--%s", n++ ? "|" : "", r->name);
		if (r->letter)
			fprintf(out, "|-%c", r->letter);
	}
	fputs(")\n\t\treturn\n\t\t;;\n\tesac\n\tCOMPREPLY=($(compgen -W '", out);
	for (int i = 0, n = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name || r->hidden)
			continue;
		fprintf(out, "%s--%s%s", n++ ? " " : "", r->name, r->arg && !r->optional ? "=" : "");
		if (r->letter)
			fprintf(out, " -%c", r->letter);
	}
	fputs(" report' -- \"$cur\"))\n"
	      "\t[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace\n"
	      "}\n"
	      "complete -F _tdtrace tdtrace\n",
	      out);
}
