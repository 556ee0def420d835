"""How a process's death is put in words (runtime.faults): the same sentence for a worker and a run unit."""

import os
import signal

from cobol_mcp.cobol.runtime.faults import describe_exit, signal_death

CAUGHT = (
    "\n/srv/cobol/PAYROLL.cbl:350: attempt to reference unallocated memory (signal SIGSEGV)\n\n"
    "libcob: /srv/cobol/PAYROLL.cbl:350: warning: implicit CLOSE of PAY-FILE ('PAYOUT')\n"
)


def test_libcob_caught_signal_gives_the_place_and_its_words():
    death = signal_death(None, 11, CAUGHT)
    assert death is not None
    assert death.sentence() == "killed by SIGSEGV at PAYROLL.cbl:350: attempt to reference unallocated memory"


def test_an_exit_status_that_only_looks_like_a_signal_is_not_one():
    assert signal_death(None, 11, "") is None  # RETURN-CODE 11
    assert signal_death(None, 8, CAUGHT) is None  # the message does not match how it ended
    assert signal_death(None, 0, "") is None


def test_a_signal_libcob_never_saw_is_named_alone():
    death = signal_death(signal.SIGKILL, None, "NIGHTRPT WROTE LINE 01\n")
    assert death is not None and death.sentence() == "killed by SIGKILL"
    assert signal_death(40, None, "").sentence() == "killed by 40"  # a real-time signal has no name


def test_the_worker_says_it_the_same_way():
    exited_11 = 11 << 8  # a waitpid status: exit(11), as libcob's handler ends
    assert "was killed by SIGSEGV at PAYROLL.cbl:350: attempt to reference" in describe_exit(exited_11, CAUGHT)
    assert "was killed by SIGABRT" in describe_exit(signal.SIGABRT, "")
    assert os.WIFSIGNALED(signal.SIGABRT)
