"""Files the system issues, recorded and signed: anyone can verify one."""
