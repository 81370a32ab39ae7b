from d2d_cli.cli import main

raise SystemExit(main())
