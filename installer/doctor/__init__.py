"""hookwright doctor: every hook config checked, conflicts between hooks found."""
